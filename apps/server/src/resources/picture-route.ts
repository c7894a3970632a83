import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { profilePictures } from '../db/schema/index.ts';
import { notFound } from '../http/envelope.ts';
import { anyOf, defineRoute } from '../http/routes.ts';

/** Thumbnails and originals, to signed-in users who may see or edit profiles. */
export const pictureRoute = defineRoute({
  method: 'GET',
  path: 'ProfilePicture/:profileCode/:variant',
  summary: 'A profile picture (variant thumbnail or original)',
  tag: 'Profiles',
  access: anyOf('VIEW_PROFILES', 'CREATE_PROFILE', 'UPDATE_PROFILE'),
  produces: 'image/*',
  async handler({ req, reply, services }) {
    const params = z
      .object({ profileCode: z.string().max(64), variant: z.enum(['thumbnail', 'original']) })
      .safeParse(req.params);
    if (!params.success) throw notFound('Picture not found');
    const [pic] = await services.db
      .select()
      .from(profilePictures)
      .where(eq(profilePictures.profileCode, params.data.profileCode));
    if (!pic) throw notFound('Picture not found');
    const thumb = params.data.variant === 'thumbnail';
    reply
      .header('Content-Type', thumb ? 'image/webp' : pic.contentType)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=86400')
      .header('Content-Disposition', `inline; filename="${thumb ? 'thumbnail.webp' : pic.filename}"`);
    await reply.send(thumb ? pic.thumbnail : pic.original);
    return undefined;
  },
});
