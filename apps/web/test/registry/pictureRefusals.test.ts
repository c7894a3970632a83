import { describe, expect, it } from 'vitest';
import { refusalMessages } from '../../src/registry/profile/PictureDropzone';

const refused = (name: string, ...codes: string[]) => ({
  file: new File(['x'], name),
  errors: codes.map((code) => ({ code, message: `react-dropzone says ${code}` })),
});

describe('what the drop zone says about a refused file', () => {
  it("names the allowed extensions and the size limit in the server's words", () => {
    expect(refusalMessages([refused('notes.txt', 'file-invalid-type')])).toEqual([
      'File type must be jpg, jpeg, png or webp',
    ]);
    expect(refusalMessages([refused('huge.png', 'file-too-large')])).toEqual(['File is larger than 5 MB']);
  });

  it('says each reason once, and passes on a reason it has no words for', () => {
    expect(
      refusalMessages([
        refused('a.txt', 'file-invalid-type'),
        refused('b.txt', 'file-invalid-type', 'too-many-files'),
        refused('c.png', 'something-new'),
      ]),
    ).toEqual([
      'File type must be jpg, jpeg, png or webp',
      'Choose one file',
      'react-dropzone says something-new',
    ]);
  });
});
