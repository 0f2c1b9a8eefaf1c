import { describe, expect, it } from 'vitest';
import { ratingStars } from './book-calibre-fields.tsx';
import { seriesLabel } from './book-links.tsx';

describe('Calibre fields as the book pages show them', () => {
  it('writes a series with the book’s place in it, fractions included', () => {
    expect(seriesLabel({ series: 'The Science of Discworld', series_index: 1 })).toBe('The Science of Discworld [1]');
    expect(seriesLabel({ series: 'Little Nemo', series_index: 1.5 })).toBe('Little Nemo [1.5]');
    expect(seriesLabel({ series: null, series_index: null })).toBeNull();
  });

  it('shows a rating as five stars, halves as ½', () => {
    expect(ratingStars(4)).toBe('★★★★☆');
    expect(ratingStars(2.5)).toBe('★★½☆☆');
    expect(ratingStars(5)).toBe('★★★★★');
    expect(ratingStars(0.5)).toBe('½☆☆☆☆');
  });
});
