/** An embed key as admins see it (the secret included: it signs the site's user tokens). */
export interface EmbedKeyJson {
  id: number;
  name: string;
  key: string;
  secret: string;
  allowedOrigins: string[];
  mayMove: boolean;
  signedUsers: boolean;
  laneIds: number[] | null;
  revoked: boolean;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}
