import { describe, expect, it } from 'vitest';
import { videoId } from './helps.service';

describe('help video identifiers', () => {
  it('take the YouTube id out of every form of address', () => {
    for (const address of [
      'dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://youtube.com/shorts/dQw4w9WgXcQ',
      '  https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ  ',
    ]) {
      expect(videoId(address), address).toBe('dQw4w9WgXcQ');
    }
  });

  it('keep anything else as written', () => {
    expect(videoId('https://vimeo.com/123')).toBe('https://vimeo.com/123');
    expect(videoId('https://www.youtube.com/watch?v=short')).toBe('https://www.youtube.com/watch?v=short');
    expect(videoId('')).toBe('');
  });
});
