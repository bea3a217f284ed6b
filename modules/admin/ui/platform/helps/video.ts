/** A YouTube video id (11 characters); the server stores pasted addresses as their id. */
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** Whether the help's video is a YouTube id (the provider of docs/product/automation.md#constants-and-limits: thumbnails and embeds). */
export const isYoutubeId = (video: string) => YOUTUBE_ID.test(video);

/** The provider's thumbnail of a video. */
export const thumbnailUrl = (video: string) => `https://img.youtube.com/vi/${encodeURIComponent(video)}/mqdefault.jpg`;

/** The provider's embedded player of a video, starting at once. */
export const embedUrl = (video: string) => `https://www.youtube.com/embed/${encodeURIComponent(video)}?autoplay=1&rel=0`;
