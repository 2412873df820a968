import test from 'ava';
import { placementsOf } from '../../domain/signatures/signature-completion.js';

const A4 = { width: 595, height: 842 };

test('each signer takes its own position; the others get blocks side by side at the bottom of the last page', (t) => {
  const positions = [
    {
      page: 1,
      x: 10,
      y: 10,
      unit: 'percent' as const,
      width: null,
      height: null,
      page_width_px: 595,
      page_height_px: 842,
    },
  ];
  const [first, second, third] = placementsOf(positions, 3, [A4, A4]);
  t.is(first.length, 1);
  t.like(first[0], { page: 1, x: 59.5, width: 180, height: 72 });
  t.is(first[0].y, 842 - 84.2 - 72);
  t.like(second[0], { page: 2, y: 24, height: 64 });
  t.like(third[0], { page: 2, y: 24, height: 64 });
  t.true(third[0].x >= second[0].x + second[0].width, 'side by side, not overlapping');
  t.true(third[0].x + third[0].width <= A4.width, 'on the page');
});

test('ten signers without positions fill rows of three, stacked up from the bottom, within the page', (t) => {
  const rects = placementsOf([], 10, [A4]).map((r) => r[0]);
  t.is(rects.length, 10);
  t.true(rects.every((r) => r.page === 1 && r.width === 170 && r.x + r.width <= A4.width));
  t.deepEqual(
    rects.map((r) => r.y),
    [24, 24, 24, 98, 98, 98, 172, 172, 172, 246],
  );
});
