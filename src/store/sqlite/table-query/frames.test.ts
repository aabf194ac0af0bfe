import { describe, expect, it } from 'vitest';
import { FrameReader, frame } from './frames.ts';

function reader(maxFrameBytes = Number.POSITIVE_INFINITY) {
  const messages: unknown[] = [];
  let overflows = 0;
  const frames = new FrameReader<unknown>();
  frames.maxFrameBytes = maxFrameBytes;
  frames.onMessage = (message) => messages.push(message);
  frames.onOverflow = () => overflows++;
  return { frames, messages, overflows: () => overflows };
}

describe('table query frames', () => {
  it('reads messages split anywhere and several in one chunk, blobs and text intact', () => {
    const sent = [
      { id: 1, rows: [['a', 1.5, null]] },
      { id: 2, blob: new Uint8Array([0, 1, 255]) },
      { id: 3, text: 'é漢😀'.repeat(100) },
    ];
    const bytes = Buffer.concat(sent.map(frame));
    const oneByOne = reader();
    for (let i = 0; i < bytes.length; i++) oneByOne.frames.push(bytes.subarray(i, i + 1));
    const whole = reader();
    whole.frames.push(bytes);
    for (const { messages } of [oneByOne, whole]) {
      expect(messages).toHaveLength(3);
      expect(messages[0]).toEqual(sent[0]);
      expect(Buffer.from((messages[1] as { blob: Uint8Array }).blob)).toEqual(Buffer.from([0, 1, 255]));
      expect(messages[2]).toEqual(sent[2]);
    }
  });

  it('stops at a frame that announces more than the cap, before its body arrives, and ignores the rest', () => {
    const { frames, messages, overflows } = reader(1000);
    const small = frame({ id: 1 });
    const large = frame({ id: 2, text: 'x'.repeat(5000) });
    frames.push(Buffer.concat([small, large.subarray(0, 4)]));
    expect(messages).toEqual([{ id: 1 }]);
    expect(overflows()).toBe(1);
    frames.push(large.subarray(4));
    frames.push(frame({ id: 3 }));
    expect(messages).toEqual([{ id: 1 }]);
    expect(overflows()).toBe(1);
  });

  it('takes small frames together past the cap in one chunk', () => {
    const { frames, messages, overflows } = reader(64);
    frames.push(Buffer.concat(Array.from({ length: 10 }, (_, id) => frame({ id }))));
    expect(messages).toHaveLength(10);
    expect(overflows()).toBe(0);
  });
});
