/**
 * The CLI as a real process (src/cli/run.ts): exit codes, binary standard input and output through real
 * pipes, usage errors on standard error. The command tables run in process (runCliInProcess); this file
 * keeps the process entry itself covered, one spawn per behaviour.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';

const PHOTO = join(__dirname, '../../examples/data/photo.json');
const FIXTURES = join(__dirname, '../fixtures/pegasus');

describe('svc as a process', () => {
  it('exits 0 and writes binary PSON to a real stdout pipe, reading JSON from stdin', async () => {
    const res = await runCli(['pson', 'encode', '-'], '{"id":9007199254740993}');
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout.subarray(0, 8).toString('latin1')).toBe('#!PSON1\n');
    const back = await runCli(['pson', 'decode', '-'], res.stdout);
    expect([back.code, back.stdout.toString('utf8')]).toEqual([0, '{"id":9007199254740993}\n']);
  });

  it('exits 1 with the messages on stderr for invalid data', async () => {
    const res = await runCli(['validate', '-s', 'com.example.common.Money', '-r', FIXTURES], '{}');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('SVC_ERR_VALIDATE_INVALID');
  });

  it.each([
    ['an unknown command', ['nope'], /unknown command 'nope'/],
    ['a missing file', ['pson', 'encode', join(PHOTO, 'missing')], /ENOTDIR|ENOENT/],
  ])('exits 2 for %s, saying why on stderr', async (_label, args, message) => {
    const res = await runCli(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stdout.length).toBe(0);
  });

  it('ends quietly (exit 0, nothing on stderr) when its reader closes the pipe: `svc serve --help | head -1`', async () => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, '../../src/cli/run.ts'), 'serve', '--help'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // the reader is gone before the first write: every write meets a closed pipe (EPIPE)
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
