import { Link } from 'react-router';

/** The link that lists the bookmarks with this tag. */
export const tagListLink = (tag: string) => `/bookmark?${new URLSearchParams({ tag })}`;

/** A bookmark's tags as chips; each opens the list of bookmarks with that tag. */
export function TagChips({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-1 mb-0 mt-1 bookmark-tags" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={tagListLink(tag)} className="badge rounded-pill text-bg-light border text-decoration-none tag-chip">
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
