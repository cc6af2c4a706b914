import { describe, expect, it } from 'vitest';
import { Gestures } from './gestures.ts';

const card = Object.assign(new EventTarget(), { toString: () => 'card' });

function recorder() {
  const log: string[] = [];
  const gestures = new Gestures({
    pan: (dx, dy) => log.push(`pan ${dx},${dy}`),
    zoom: (sx, sy, f) => log.push(`zoom ${sx},${sy} ×${f}`),
    tap: (target) => log.push(`tap ${String(target)}`),
  });
  return { log, gestures };
}

describe('Gestures', () => {
  it('should call a press that stays put a tap, on what was pressed', () => {
    const { log, gestures } = recorder();
    gestures.down(1, 10, 10, card);
    gestures.move(1, 12, 11);
    gestures.up(1);
    expect(log).toEqual(['tap card']);
  });

  it('should drag the map with one pointer once it moved past the slop, and then not tap', () => {
    const { log, gestures } = recorder();
    gestures.down(1, 0, 0, card);
    gestures.move(1, 5, 0);
    gestures.move(1, 25, 10);
    gestures.up(1);
    expect(log).toEqual(['pan 20,10']);
  });

  it('should pinch with two pointers: zoom around their middle and move with it', () => {
    const { log, gestures } = recorder();
    gestures.down(1, 100, 100, null);
    gestures.down(2, 200, 100, null);
    gestures.move(2, 300, 100);
    gestures.up(2);
    gestures.up(1);
    expect(log).toEqual(['zoom 150,100 ×2', 'pan 50,0']);
  });
});
