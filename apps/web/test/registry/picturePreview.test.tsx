import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePreview } from '../../src/registry/profile/PictureDropzone';

function Preview({ file }: { file: File | null }) {
  const url = usePreview(file);
  return url ? <img alt="preview" src={url} /> : null;
}

afterEach(() => vi.restoreAllMocks());

describe("a picture's preview", () => {
  it('releases the old object URL only once the image shows the new one, and the last on close', () => {
    let made = 0;
    const shownWhenReleased: Record<string, string | null> = {};
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:preview-${++made}`);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
      shownWhenReleased[url] = document.querySelector('img')?.getAttribute('src') ?? null;
    });
    const first = new File(['a'], 'a.png', { type: 'image/png' });
    const second = new File(['b'], 'b.png', { type: 'image/png' });
    const view = render(<Preview file={first} />);
    expect(document.querySelector('img')?.getAttribute('src')).toBe('blob:preview-1');
    view.rerender(<Preview file={second} />);
    expect(document.querySelector('img')?.getAttribute('src')).toBe('blob:preview-2');
    expect(shownWhenReleased).toEqual({ 'blob:preview-1': 'blob:preview-2' });
    view.unmount();
    expect(Object.keys(shownWhenReleased)).toEqual(['blob:preview-1', 'blob:preview-2']);
  });
});
