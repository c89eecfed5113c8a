import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TailEntry } from '../../../../shared/domain';
import { FakeConsole } from '../../test/fake-client';
import { renderWithConsole } from '../../test/render-console';
import { TailView } from './TailView';

let seq = 0;
const out = (text: string, stream: 'stdout' | 'stderr' = 'stdout'): TailEntry => ({ kind: 'text', stream, text, seq: ++seq, at: Date.UTC(2024, 0, 1, 12, 0, 0, 250) });

function renderTail(replay: TailEntry[] = []) {
  const fake = new FakeConsole();
  if (replay.length > 0) fake.pushTail('lease-1', 'p1', replay);
  const rendered = renderWithConsole(<TailView leaseId="lease-1" processId="p1" />, fake);
  return { ...rendered, log: () => screen.getByRole('log', { name: 'Output lines of p1' }) };
}

function shownLines(log: HTMLElement): string[] {
  return [...log.querySelectorAll('.line .line-text')].map((el) => el.textContent);
}

async function push(fake: FakeConsole, entries: TailEntry[]): Promise<void> {
  await act(async () => {
    fake.pushTail('lease-1', 'p1', entries);
    await Promise.resolve();
  });
}

describe('TailView', () => {
  it('shows the replay then live lines, stdout and stderr distinct and labelled, losses as markers', async () => {
    const { fake, log } = renderTail([out('first\n'), out('oops\n', 'stderr')]);
    await waitFor(() => expect(shownLines(log())).toEqual(['first', 'oops']));
    await push(fake, [{ kind: 'gap', lostBytes: 512, reason: 'output evicted', at: 1 }, out('after\n')]);
    await waitFor(() => expect(shownLines(log())).toEqual(['first', 'oops', '[512 bytes lost: output evicted]', 'after']));
    const stderr = log().querySelector('.line.stderr');
    expect(stderr?.textContent).toBe('stderr: oops');
    expect(stderr?.querySelector('.sr-only')?.textContent).toBe('stderr: ');
    expect(log().querySelector('.line.marker.gap')?.textContent).toContain('512 bytes lost');
  });

  it('follows new output, pauses when the operator scrolls up, and resumes with "Follow"', async () => {
    const { fake, log } = renderTail(Array.from({ length: 200 }, (_, i) => out(`line ${i}\n`)));
    await waitFor(() => expect(screen.getByText(/200 lines/)).toBeTruthy());
    // A browser fires "scroll" after the view scrolls itself to the newest line; jsdom does not.
    fireEvent.scroll(log());
    expect(shownLines(log())).toContain('line 199');
    expect(shownLines(log())).not.toContain('line 0');
    const follow = screen.getByRole('button', { name: 'Follow' });
    expect(follow.getAttribute('aria-pressed')).toBe('true');
    expect(log().scrollTop).toBe(log().scrollHeight);

    log().scrollTop = 100;
    fireEvent.scroll(log());
    expect(follow.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByText(/200 lines · paused/)).toBeTruthy();

    await push(fake, [out('more\n')]);
    await waitFor(() => expect(screen.getByText(/201 lines/)).toBeTruthy());
    expect(log().scrollTop).toBe(100);

    fireEvent.click(follow);
    expect(follow.getAttribute('aria-pressed')).toBe('true');
    expect(log().scrollTop).toBe(log().scrollHeight);
    fireEvent.scroll(log());
    expect(shownLines(log())).toContain('more');
  });

  it('pauses following on a wheel up', async () => {
    const { log } = renderTail([out('a\n')]);
    await waitFor(() => expect(shownLines(log())).toEqual(['a']));
    fireEvent.wheel(log(), { deltaY: -40 });
    expect(screen.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('highlights search hits and moves between them', async () => {
    const { log } = renderTail([out('alpha ERROR one\n'), out('fine\n'), out('error two, error three\n', 'stderr')]);
    await waitFor(() => expect(shownLines(log())).toHaveLength(3));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search output' }), { target: { value: 'error' } });
    expect(log().querySelectorAll('mark')).toHaveLength(3);
    expect(screen.getByText('3 matches')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Next match' }));
    expect(screen.getByText('1 of 3')).toBeTruthy();
    expect(log().querySelector('mark.current')?.textContent).toBe('ERROR');
    fireEvent.click(screen.getByRole('button', { name: 'Next match' }));
    expect(screen.getByText('2 of 3')).toBeTruthy();
    expect(log().querySelector('mark.current')?.closest('.line')?.getAttribute('data-index')).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Previous match' }));
    expect(screen.getByText('1 of 3')).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search output' }), { key: 'Enter', shiftKey: true });
    expect(screen.getByText('3 of 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe('false');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search output' }), { target: { value: 'nothing' } });
    expect(screen.getByText('No matches')).toBeTruthy();
    expect(log().querySelectorAll('mark')).toHaveLength(0);
  });

  it('shows timestamps on demand and copies lines through the platform clipboard', async () => {
    const { log, platform } = renderTail([out('one\n'), out('two\n', 'stderr')]);
    await waitFor(() => expect(shownLines(log())).toHaveLength(2));
    expect(log().querySelector('.line-time')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Timestamps' }));
    expect(log().querySelector('.line-time')?.textContent).toBe('12:00:00.250 ');

    fireEvent.click(screen.getByRole('button', { name: 'Copy all lines' }));
    await waitFor(() => expect(platform.copied).toEqual(['12:00:00.250 one\n12:00:00.250 [stderr] two']));
    expect(await screen.findByText(/Copied 2 lines/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy visible lines' }));
    await waitFor(() => expect(platform.copied).toHaveLength(2));
  });

  it('wraps long lines on demand: rows lose their fixed height and are measured instead', async () => {
    const long = 'x'.repeat(500);
    const { log } = renderTail([out(`${long}\n`), out('short\n')]);
    await waitFor(() => expect(shownLines(log())).toEqual([long, 'short']));
    const row = () => log().querySelector<HTMLElement>('.line[data-index="0"]');
    expect(row()?.style.height).toBe('18px');
    expect(row()?.classList.contains('wrap')).toBe(false);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Wrap lines' }));
    expect(log().classList.contains('wrapped')).toBe(true);
    expect(row()?.classList.contains('wrap')).toBe(true);
    expect(row()?.style.height).toBe('');
    expect(shownLines(log())).toEqual([long, 'short']);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Wrap lines' }));
    expect(log().classList.contains('wrapped')).toBe(false);
    expect(row()?.style.height).toBe('18px');
  });

  it('says when the stream broke and subscribes again', async () => {
    const { fake, log } = renderTail([out('kept\n')]);
    await waitFor(() => expect(shownLines(log())).toEqual(['kept']));
    act(() => fake.failTails('lease-1', 'p1', new Error('WebSocket closed (1006)')));
    expect(await screen.findByText(/Output stream interrupted: WebSocket closed \(1006\)/)).toBeTruthy();
    await waitFor(() => expect(fake.openTails('lease-1', 'p1')).toBe(1), { timeout: 3000 });
    await waitFor(() => expect(screen.queryByText(/Output stream interrupted/)).toBeNull());
    expect(shownLines(log())).toEqual(['kept']);
  });

  it('unsubscribes when it goes away', async () => {
    const { fake, unmount, log } = renderTail([out('x\n')]);
    await waitFor(() => expect(shownLines(log())).toEqual(['x']));
    expect(fake.openTails('lease-1', 'p1')).toBe(1);
    unmount();
    await waitFor(() => expect(fake.openTails('lease-1', 'p1')).toBe(0));
    expect(within(document.body).queryByRole('log')).toBeNull();
  });
});
