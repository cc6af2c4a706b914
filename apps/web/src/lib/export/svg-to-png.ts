import type { SvgImage } from './map-svg.ts';

/** The largest side and area of a canvas every browser draws (beyond, the image is scaled down). */
const MAX_SIDE = 16_384;
const MAX_AREA = 100_000_000;

/** The pixel scale for a PNG of `image`: `preferred` (2 for sharp text), less when the image would be too big. */
export function pngScale(image: Pick<SvgImage, 'width' | 'height'>, preferred = 2): number {
  return Math.min(
    preferred,
    MAX_SIDE / image.width,
    MAX_SIDE / image.height,
    Math.sqrt(MAX_AREA / (image.width * image.height)),
  );
}

/** Draws an SVG image onto a canvas in the browser and encodes it as PNG. */
export async function svgToPng(image: SvgImage): Promise<Blob> {
  const scale = pngScale(image);
  const url = URL.createObjectURL(new Blob([image.svg], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.floor(image.width * scale));
    canvas.height = Math.max(1, Math.floor(image.height * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.scale(scale, scale);
    context.drawImage(img, 0, 0, image.width, image.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be made'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
