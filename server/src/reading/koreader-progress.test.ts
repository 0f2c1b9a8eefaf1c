import { describe, expect, it } from 'vitest';
import { koreaderProgressOf, webLocatorOf } from './koreader-progress.ts';

const web = (locator: string | null) => ({ locator, koreaderProgress: null });
const koreader = (progress: string) => ({ locator: null, koreaderProgress: progress });

describe("a place in KOReader's terms and the web reader's", () => {
  it("gives KOReader the web reader's PDF page as it is, and its EPUB CFI as the start of the spine item", () => {
    expect(koreaderProgressOf(web('12'), 'pdf')).toBe('12');
    expect(koreaderProgressOf(web('epubcfi(/6/14!/4/2/10/1:0)'), 'epub')).toBe('/body/DocFragment[7]/body');
    expect(koreaderProgressOf(web('epubcfi(/6/2!/4)'), 'azw3')).toBe('/body/DocFragment[1]/body');
  });

  it('gives KOReader nothing where the place does not fit the format', () => {
    expect(koreaderProgressOf(web('12'), 'epub')).toBeNull();
    expect(koreaderProgressOf(web('epubcfi(/6/14!/4)'), 'pdf')).toBeNull();
    expect(koreaderProgressOf(web('epubcfi(/6/7!/4)'), 'epub')).toBeNull();
    expect(koreaderProgressOf(web('epubcfi(/4/2)'), 'epub')).toBeNull();
    expect(koreaderProgressOf(web('0'), 'pdf')).toBeNull();
    expect(koreaderProgressOf(web(null), 'epub')).toBeNull();
    expect(koreaderProgressOf(koreader('/body/DocFragment[3]/body'), 'pdf')).toBeNull();
    expect(koreaderProgressOf(koreader('56'), 'epub')).toBeNull();
  });

  it("gives KOReader another KOReader's place when the format takes it", () => {
    expect(koreaderProgressOf(koreader('/body/DocFragment[20]/body/p[22]/text().0'), 'epub')).toBe('/body/DocFragment[20]/body/p[22]/text().0');
    expect(koreaderProgressOf(koreader('56'), 'cbz')).toBe('56');
  });

  it("gives the web reader KOReader's page of a paged format, and nothing for an XPointer", () => {
    expect(webLocatorOf('56', 'pdf')).toBe('56');
    expect(webLocatorOf('/body/DocFragment[20]/body', 'epub')).toBeNull();
    expect(webLocatorOf('56', 'epub')).toBeNull();
    expect(webLocatorOf('56', null)).toBeNull();
  });
});
