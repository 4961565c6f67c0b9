import type { ResourceRequest } from '../resources';

/**
 * Requests an observer leaves alone: the paths of health checks and of the scrape (`/health/live`,
 * `/health/ready`, `/metrics`), as a list of paths or a test of the path. Paths are the request target's
 * path as the client sent it (prefix included, query excluded).
 */
export type ExcludeOption = readonly string[] | ((path: string) => boolean);

/** The test for an exclude option (undefined for none: the observer then tests nothing). */
export function excluder(option: ExcludeOption | undefined): ((r: ResourceRequest) => boolean) | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'function') return (r) => option(pathOf(r.url));
  if (!Array.isArray(option) || !option.every((p) => typeof p === 'string'))
    throw new TypeError('exclude must be a list of paths or a function of the path');
  if (option.length === 0) return undefined;
  const paths = new Set(option);
  return (r) => paths.has(pathOf(r.url));
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
