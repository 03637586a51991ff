import { highlight } from '../utils/filterOptions';

export function Highlight({ text, query }: { text: string; query: string }) {
  const segments = highlight(text, query);
  return (
    <>
      {segments.map((segment, i) =>
        segment.match ? (
          <mark key={i} className="ms-mark">
            {segment.text}
          </mark>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </>
  );
}
