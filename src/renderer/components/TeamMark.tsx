/** A report pulled from the team's library: marked as the team's, with who bought it. */
import type { LibraryItem } from '../../shared/rpc';

export function TeamMark(props: { boughtBy: LibraryItem['boughtBy'] }) {
  if (!props.boughtBy) return null;
  const { analyst, deskId } = props.boughtBy;
  return (
    <span
      className="tag team-mark"
      data-testid="team-mark"
      title={`Bought for the team by ${analyst} (desk ${deskId})`}
    >
      Team · bought by <bdi>{analyst}</bdi>
    </span>
  );
}
