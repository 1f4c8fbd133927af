// onScreen asserts what a person sees of one element: scrolled to, it has
// a non-empty box inside the viewport (review and torneio-names tests).
import assert from 'node:assert/strict';

export async function onScreen(page, loc, what) {
  await loc.scrollIntoViewIfNeeded();
  const box = await loc.boundingBox();
  const vp = page.viewportSize();
  assert.ok(box && box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0 &&
    box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5, `${what} is at ${JSON.stringify(box)} in ${JSON.stringify(vp)}`);
}
