import { commentPreview } from './comment-preview.ts';

/**
 * A card's comment preview. Its own module, loaded only once a result carries a comment (which
 * the search asks for only when "include comment" is on): HTML's table of named entities that the
 * preview decodes by is the largest part of the book page's script.
 */
export function CommentPreviewText({ comment }: { comment: string }) {
  const preview = commentPreview(comment);
  return preview === '' ? null : <p className="small mb-0 mt-1 book-comment-preview">{preview}</p>;
}
