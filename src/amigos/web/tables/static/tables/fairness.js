// Fair deals, checked in the player's own browser with WebCrypto (SHA-256).
//
// The server publishes a commitment when a hand starts and reveals the deal key when it ends
// (amigos.engine.deal). Here the browser recomputes both on its own: the commitment from the key
// and the hand's id, and the deal the key gives, so a player need not trust the server's word.
// The byte layouts are the engine's: any change there must change here too (the tests compare
// both on the same keys).

const encoder = new TextEncoder();

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The canonical text of a deal key (lower-case UUID with hyphens), or null if it is not one.
export function normaliseKey(key) {
  if (typeof key !== "string" || key.length !== 36) return null;
  const text = key.toLowerCase();
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(text) ? text : null;
}

// SHA-256 (hex) of "amigos-commit/1|<hand id>|<key>": what the server published before the hand.
export async function commitment(key, handId) {
  const canonical = normaliseKey(key);
  if (canonical === null) throw new Error("bad_key");
  return hex(await sha256(encoder.encode(`amigos-commit/1|${handId}|${canonical}`)));
}

export async function verifyCommitment(key, handId, published) {
  if (normaliseKey(key) === null || typeof published !== "string") return false;
  return (await commitment(key, handId)) === published.toLowerCase();
}

// 32-bit integers from SHA-256("amigos-deal/1|<key>|" + 8-byte big-endian counter), block by block.
async function* stream(key) {
  const seed = encoder.encode(`amigos-deal/1|${key}|`);
  for (let counter = 0; ; counter += 1) {
    const input = new Uint8Array(seed.length + 8);
    input.set(seed);
    new DataView(input.buffer).setBigUint64(seed.length, BigInt(counter));
    const block = await sha256(input);
    const view = new DataView(block.buffer);
    for (let offset = 0; offset < 32; offset += 4) yield view.getUint32(offset);
  }
}

// A uniform integer below n by rejection sampling, exactly as the engine draws it.
async function below(numbers, n) {
  const span = 2 ** 32;
  const limit = span - (span % n);
  for (;;) {
    const { value } = await numbers.next();
    if (value < limit) return value % n;
  }
}

// The double-`maxPip` set in canonical order ("0-0", "1-0", "1-1", "2-0", …).
export function tileSet(maxPip) {
  const tiles = [];
  for (let high = 0; high <= maxPip; high += 1) for (let low = 0; low <= high; low += 1) tiles.push(`${high}-${low}`);
  return tiles;
}

// The set shuffled by the key (Fisher-Yates from the end), as amigos.engine.deal.shuffled_set.
export async function shuffledSet(key, maxPip) {
  const canonical = normaliseKey(key);
  if (canonical === null) throw new Error("bad_key");
  const tiles = tileSet(maxPip);
  const numbers = stream(canonical);
  for (let i = tiles.length - 1; i > 0; i -= 1) {
    const j = await below(numbers, i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles;
}

// Each seat's dealt tiles and the rest (boneyard or set-aside tiles), in the key's order.
export async function dealFromKey(key, maxPip, players, handSize) {
  const order = await shuffledSet(key, maxPip);
  const hands = [];
  for (let seat = 0; seat < players; seat += 1) hands.push(order.slice(seat * handSize, (seat + 1) * handSize));
  return { hands, rest: order.slice(players * handSize) };
}

// Does the revealed key explain the hand that was played? Each seat's tiles at the end plus the
// tiles it laid must be exactly what the key dealt it, once drawn tiles are counted in.
export function dealMatches(deal, revealed, history) {
  const owned = revealed.map((tiles) => new Set(tiles));
  const drawnBy = revealed.map(() => 0);
  for (const event of history) {
    if (event.type === "play") owned[event.seat].add(event.tile);
    if (event.type === "draw") drawnBy[event.seat] += 1;
  }
  let boneyardUsed = 0;
  for (let seat = 0; seat < owned.length; seat += 1) {
    const dealt = deal.hands[seat];
    if (!dealt.every((tile) => owned[seat].has(tile))) return false;
    if (owned[seat].size !== dealt.length + drawnBy[seat]) return false;
    boneyardUsed += drawnBy[seat];
  }
  // Drawn tiles come off the top of the boneyard, in its order.
  const drawnTiles = new Set(deal.rest.slice(0, boneyardUsed));
  const extra = owned.flatMap((tiles, seat) => [...tiles].filter((tile) => !deal.hands[seat].includes(tile)));
  return extra.length === drawnTiles.size && extra.every((tile) => drawnTiles.has(tile));
}
