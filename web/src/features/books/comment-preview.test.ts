import { describe, expect, it } from 'vitest';
import { COMMENT_PREVIEW_LENGTH, commentPreview } from './comment-preview.ts';

describe('the comment preview of a book card', () => {
  it('is empty without a comment', () => {
    expect(commentPreview(undefined)).toBe('');
    expect(commentPreview(null)).toBe('');
    expect(commentPreview('')).toBe('');
  });

  it('replaces HTML tags by spaces, so that words in neighbouring elements stay apart', () => {
    expect(commentPreview('<div><p>First</p><p>second <b>bold</b>line</p></div>')).toBe('First second bold line');
  });

  it('keeps the first 200 characters of the text', () => {
    const words = 'word '.repeat(100);
    const preview = commentPreview(`<p>${words}</p>`);

    expect(COMMENT_PREVIEW_LENGTH).toBe(200);
    expect(preview).toHaveLength(200);
    expect(preview).toBe(words.trim().slice(0, 200));
  });

  it('counts characters after the tags are gone', () => {
    const empty = '<p class="b"></p>'.repeat(50);
    const tagged = `<div class="a"><p>${'x'.repeat(150)}</p>${empty}<p>${'y'.repeat(150)}</p></div>`;

    expect(commentPreview(tagged)).toBe(`${'x'.repeat(150)} ${'y'.repeat(49)}`);
  });

  it('cuts a long comment the same as its whole text would be cut', () => {
    const paragraph = `<p class="description">${'Lorem ipsum dolor sit amet. '.repeat(20)}</p>`;
    const long = `<div>${'<span></span>'.repeat(2000)}${paragraph.repeat(10_000)}</div>`;

    expect(commentPreview(long)).toBe('Lorem ipsum dolor sit amet. '.repeat(20).slice(0, 200));
  });

  it('leaves out the text of scripts and style sheets, and decodes entities', () => {
    const hostile =
      '<p>Caf&eacute;? Tom &amp; Jerry &lt;3 &#233;&#x41;</p>' +
      '<script>alert("x")</script><style>p{}</style><img src=x onerror=alert(1)>';

    expect(commentPreview(hostile)).toBe('Café? Tom & Jerry <3 éA');
  });

  it('decodes every entity HTML names, as the browser shows them', () => {
    expect(commentPreview('<p>&copy; 2024 Gallimard &mdash; &laquo;Les Mis&eacute;rables&raquo;&hellip;</p>')).toBe(
      '© 2024 Gallimard — «Les Misérables»…',
    );
    expect(commentPreview('&copy 1862&nbsp;&nbsp;Hugo &unknownname; &amp;lt;b&amp;gt;')).toBe('© 1862 Hugo &unknownname; &lt;b&gt;');
  });

  it('keeps encoded markup as text rather than taking it for a tag', () => {
    expect(commentPreview('<p>&lt;b&gt;bold&lt;/b&gt;</p>')).toBe('<b>bold</b>');
  });

  it('never cuts a character in half', () => {
    const preview = commentPreview('😀'.repeat(300));

    expect(Array.from(preview)).toHaveLength(200);
    expect(preview).toBe('😀'.repeat(200));
  });
});
