import { isDetailPath, seesAllDetails } from '@wfc/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { profilePictures, profiles } from '../db/schema/index.ts';
import { notFound } from '../http/envelope.ts';
import { anyOf, defineRoute } from '../http/routes.ts';
import { profiles$ } from './definitions/people.ts';
import { reach } from './read.ts';

const PICTURE_PERMISSIONS = ['VIEW_PROFILES', 'CREATE_PROFILE', 'UPDATE_PROFILE'] as const;

/** Thumbnails and originals, to signed-in users who may see or edit profiles. */
export const pictureRoute = defineRoute({
  method: 'GET',
  path: 'ProfilePicture/:profileCode/:variant',
  summary: 'A profile picture (variant thumbnail or original)',
  tag: 'Profiles',
  access: anyOf(...PICTURE_PERMISSIONS),
  produces: 'image/*',
  async handler({ req, reply, services, session }) {
    const params = z
      .object({ profileCode: z.string().max(64), variant: z.enum(['thumbnail', 'original']) })
      .safeParse(req.params);
    if (!params.success) throw notFound('Picture not found');
    // The picture of a profile beyond the caller's reach is not found, like a missing one.
    const { where } = reach(profiles$, session, PICTURE_PERMISSIONS);
    const [pic] = await services.db
      .select()
      .from(profilePictures)
      .where(
        and(
          eq(profilePictures.profileCode, params.data.profileCode),
          where &&
            inArray(
              profilePictures.profileCode,
              services.db.select({ code: profiles.profileCode }).from(profiles).where(where),
            ),
        ),
      );
    if (!pic) throw notFound('Picture not found');
    // A picture is personal data: only for those who need to know, and for its own person.
    if (!seesAllDetails(session, profiles$.def) && isDetailPath(profiles$.def, 'profilePicture')) {
      const [own] = await services.db
        .select({ code: profiles.profileCode })
        .from(profiles)
        .where(and(eq(profiles.profileCode, pic.profileCode), eq(profiles.userCode, session.userCode)));
      if (!own) throw notFound('Picture not found');
    }
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
