import { describe, expect, it } from 'vitest';
import { imageCoverage } from './image-coverage.ts';

// The operator codes as pdf.js numbers them (OPS): only their identity matters here.
const ops = {
  save: 10,
  restore: 11,
  transform: 12,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  paintsImage: new Set([85, 86]),
};
const LETTER = 612 * 792;

describe('imageCoverage', () => {
  it('measures an image by the matrix it is painted with: a full-page scan covers the page, a logo a sliver', () => {
    const scan = imageCoverage([10, 12, 85, 11], [null, [612, 0, 0, 792, 0, 0], ['img'], null], ops, LETTER);
    expect(scan).toBeCloseTo(1);
    const logo = imageCoverage([10, 12, 85, 11], [null, [72, 0, 0, 72, 468, 700], ['img'], null], ops, LETTER);
    expect(logo).toBeCloseTo((72 * 72) / LETTER);
  });

  it('restores the matrix after a saved state and a form, and composes nested transforms', () => {
    const fns = [10, 12, 11, 74, 12, 86, 75, 85];
    const args = [
      null,
      [1000, 0, 0, 1000, 0, 0],
      null,
      [
        [2, 0, 0, 2, 0, 0],
        [0, 0, 1, 1],
      ],
      [153, 0, 0, 198, 0, 0],
      [],
      null,
      [],
    ];
    // The form's image: 2 × (153 × 198) on each side = a quarter of the page... times 4 = the page; after the form,
    // the identity matrix paints a 1 × 1 image.
    expect(imageCoverage(fns, args, ops, LETTER)).toBeCloseTo((306 * 396 + 1) / LETTER);
  });

  it('is 0 on a page without images and capped at 1 when images overlap', () => {
    expect(imageCoverage([10, 11], [null, null], ops, LETTER)).toBe(0);
    const twice = [10, 12, 85, 85, 11];
    expect(imageCoverage(twice, [null, [612, 0, 0, 792, 0, 0], [], [], null], ops, LETTER)).toBe(1);
  });
});
