type Matrix = [number, number, number, number, number, number];

/** The pdf.js operator codes the coverage walk follows (`OPS` of the resolved pdf.js). */
export interface CoverageOps {
  save: number;
  restore: number;
  transform: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  /** Operators that paint one image into the unit square of the current matrix. */
  paintsImage: ReadonlySet<number>;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const multiply = (m: Matrix, n: readonly number[]): Matrix => {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = n;
  return [
    a * m[0] + b * m[2],
    a * m[1] + b * m[3],
    c * m[0] + d * m[2],
    c * m[1] + d * m[3],
    e * m[0] + f * m[2] + m[4],
    e * m[1] + f * m[3] + m[5],
  ];
};

/**
 * The share of a page's area (`pageArea`, in points²) its images cover, from its operator list: an image is painted
 * into the unit square of the current transformation matrix, so its area is the matrix's determinant. Overlaps count
 * twice; the share is capped at 1. What a scan is: one image over (nearly) the whole page.
 */
export function imageCoverage(
  fnArray: readonly number[],
  argsArray: readonly unknown[],
  ops: CoverageOps,
  pageArea: number,
): number {
  let matrix = IDENTITY;
  const stack: Matrix[] = [];
  let covered = 0;
  fnArray.forEach((fn, index) => {
    const args = argsArray[index] as unknown[] | null;
    if (fn === ops.save) stack.push(matrix);
    else if (fn === ops.restore) matrix = stack.pop() ?? matrix;
    else if (fn === ops.transform && Array.isArray(args)) matrix = multiply(matrix, args as number[]);
    else if (fn === ops.paintFormXObjectBegin) {
      stack.push(matrix);
      const formMatrix = Array.isArray(args) ? args[0] : undefined;
      if (Array.isArray(formMatrix) || ArrayBuffer.isView(formMatrix))
        matrix = multiply(matrix, Array.from(formMatrix as ArrayLike<number>));
    } else if (fn === ops.paintFormXObjectEnd) matrix = stack.pop() ?? matrix;
    else if (ops.paintsImage.has(fn)) covered += Math.abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]);
  });
  return pageArea > 0 ? Math.min(1, covered / pageArea) : 0;
}
