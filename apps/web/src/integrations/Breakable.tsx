import { Fragment } from 'react';

/**
 * Text that may break only after its separators (a URL's slashes, an event type's dots), not
 * inside a word: `<wbr>` after each of them.
 */
export function Breakable({ text, after = /(?<=[/?&#._])/ }: { text: string; after?: RegExp }) {
  let offset = 0;
  return (
    <>
      {text.split(after).map((part) => {
        const at = offset;
        offset += part.length;
        return (
          <Fragment key={at}>
            {at > 0 && <wbr />}
            {part}
          </Fragment>
        );
      })}
    </>
  );
}
