const { spawn } = require('child_process'); const http = require('http');
for (const [app, p] of [['plugin', '/photos/3'], ['fastify', '/bare/photos/3'], ['standalone', '/photos/3'], ['node', '/bare/photos/3']]) {
  const c = spawn(process.execPath, ['-r', '@swc-node/register', 'bench/resources.bench.ts', '--server'], { cwd: '/work/main', stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, SVC_BENCH_APP: app } });
  c.once('message', (port) => {
    const net = require('net'); const s = net.connect(port, '127.0.0.1', () => s.write(`GET ${p} HTTP/1.1\r\nHost: x\r\nx-svc-protocol-version: 2.0.0\r\n\r\n`));
    let d = ''; s.on('data', (b) => { d += b; if (d.includes('\r\n\r\n')) { console.log(app, d.length, JSON.stringify(d.split('\r\n\r\n')[0])); s.destroy(); c.send('stop'); } });
  });
}
