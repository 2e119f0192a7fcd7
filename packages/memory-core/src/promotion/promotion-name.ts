// How a promoted memory's episode is named, apart from the promotion service so recall (which may not
// bundle the send side) can tell this user's own team promotions from anyone else's.
import { APP_NAME } from '../mapping/turn-mapping.js';
import { sha256Hex } from '../scopes/sha256.js';
import type { PromotionKind, PromotionScope } from './episode-format.js';

/**
 * `graphiti-memory.promotion.<32 hex>`: the same memory promoted twice has the same name. In the
 * shared team group the author is part of it (`author`: a hash of theirs, such as their user group
 * id), so two teammates promoting the same text write two episodes and each forgets only their own.
 */
export async function promotionMessageName(kind: PromotionKind, scope: PromotionScope, text: string, author?: string): Promise<string> {
  const owner = scope === 'team' && author !== undefined ? `\n${author}` : '';
  const digest = await sha256Hex(`${kind}\n${scope}\n${text.trim()}${owner}`);
  return `${APP_NAME}.promotion.${digest.slice(0, 32)}`;
}
