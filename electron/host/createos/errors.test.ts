import { describe, expect, it } from 'vitest';
import { CreateosCleanupError, CreateosError, httpError, httpFailureMessage, labelForPath } from './errors';

describe('labelForPath (§5: first matching rule)', () => {
  it.each([
    ['/sandboxes/sb_1/files', 'file transfer'],
    ['/sandboxes/sb_1/files?path=%2Ftmp%2Fx', 'file transfer'],
    ['/sandboxes/sb_1/file', 'file transfer'],
    ['/sandboxes/sb_1/processes/p_1/stdin/close', 'stdin close'],
    ['/sandboxes/sb_1/processes/p_1/connect', 'output connection'],
    ['/sandboxes/sb_1/processes/p_1/connect?after=3', 'output connection'],
    ['/sandboxes/sb_1/processes', 'process creation'],
    ['/sandboxes/sb_1/processes/p_1', 'process cleanup'],
    ['/sandboxes/sb_1/processes/p_1?grace_ms=1000', 'process cleanup'],
    ['/sandboxes/sb_1/processes/p_1/wait?scope=tree', 'process cleanup'],
    ['/sandboxes/sb_1/exec', 'workspace command'],
    ['/sandboxes/sb_1', 'sandbox lifecycle'],
    ['/sandboxes/sb_1/pause', 'sandbox lifecycle'],
    ['/sandboxes', 'sandbox lifecycle'],
    ['/whoami', 'sandbox lifecycle'],
  ])('%s → %s', (path, label) => {
    expect(labelForPath(path)).toBe(label);
  });

  it('builds the HTTP failure message', () => {
    expect(httpFailureMessage(503, 'process creation')).toBe('CreateOS request failed (HTTP 503) during process creation.');
    const error = httpError(410, '/sandboxes/sb/processes/p/connect?after=0');
    expect(error.message).toBe('CreateOS request failed (HTTP 410) during output connection.');
    expect(error.status).toBe(410);
    expect(error.code).toBe('http');
  });

  it('CreateosCleanupError is a CreateosError', () => {
    const error = new CreateosCleanupError('cleanup_unconfirmed', 'x');
    expect(error).toBeInstanceOf(CreateosError);
    expect(error.name).toBe('CreateosCleanupError');
    expect(error.cause).toBeUndefined();
  });
});
