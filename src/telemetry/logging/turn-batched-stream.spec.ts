import { setImmediate as nextTurn } from 'node:timers/promises';
import { type BatchTarget, TurnBatchedStream } from './turn-batched-stream';

const target = (): BatchTarget & { writes: string[]; flushes: number } => {
  const t = {
    writes: [] as string[],
    flushes: 0,
    write(text: string): void {
      t.writes.push(text);
    },
    flushSync(): void {
      t.flushes += 1;
    },
  };
  return t;
};

describe('TurnBatchedStream', () => {
  const made: TurnBatchedStream[] = [];
  const stream = (t: BatchTarget): TurnBatchedStream => {
    const s = new TurnBatchedStream(t);
    made.push(s);
    return s;
  };
  afterEach(() => made.splice(0).forEach((s) => s.close()));

  it('hands the lines of one turn to the target as one write, in order', async () => {
    const t = target();
    const s = stream(t);
    s.write('a\n');
    s.write('b\n');
    s.write('c\n');
    expect(t.writes).toEqual([]);
    await nextTurn();
    expect(t.writes).toEqual(['a\nb\nc\n']);
    s.write('d\n');
    await nextTurn();
    expect(t.writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('passes on what waits before the target flushes, synchronously or not', async () => {
    const t = target();
    const s = stream(t);
    s.write('a\n');
    s.flushSync();
    expect(t.writes).toEqual(['a\n']);
    expect(t.flushes).toBe(1);
    s.write('b\n');
    const flushed = jest.fn();
    s.flush(flushed);
    expect(t.writes).toEqual(['a\n', 'b\n']);
    expect(flushed).toHaveBeenCalledTimes(1);
    await nextTurn();
    expect(t.writes).toHaveLength(2);
  });

  it('passes on what waits when the process exits, ahead of the target’s own exit flush', () => {
    const t = target();
    const order: string[] = [];
    const onExit = (): void => void order.push(`target flushed after ${t.writes.join('|')}`);
    const listening = process.listenerCount('exit');
    process.on('exit', onExit);
    const s = stream(t);
    expect(process.listenerCount('exit')).toBe(listening + 2);
    s.write('last\n');
    try {
      process.emit('exit', 0);
    } finally {
      process.removeListener('exit', onExit);
    }
    expect(order).toEqual(['target flushed after last\n']);
    s.close();
    expect(process.listenerCount('exit')).toBe(listening);
  });
});
