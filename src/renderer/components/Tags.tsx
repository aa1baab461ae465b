/** A report's own tags as small chips, and a mark for a note (its text on hover and to screen readers). */
export function Tags(props: { tags: readonly string[]; note?: string | null }) {
  if (props.tags.length === 0 && !props.note) return null;
  return (
    <span className="tags" data-testid="item-tags">
      {props.tags.map((tag) => (
        <span key={tag} className="tag">
          #<bdi>{tag}</bdi>
        </span>
      ))}
      {props.note ? (
        <span
          className="note-mark"
          role="img"
          title={props.note}
          aria-label={`Note: ${props.note.slice(0, 200)}`}
        >
          ✎
        </span>
      ) : null}
    </span>
  );
}
