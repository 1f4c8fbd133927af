// onScreen asserts what a person sees of one element: scrolled to, it has
// a non-empty box inside the viewport (review and torneio-names tests).
// A list the page draws again (when its connection comes up, say) may
// replace the element between the scroll and the measure: the locator is
// then found again, a few times at most.
import assert from 'node:assert/strict';

export async function onScreen(page, loc, what) {
  let box;
  for (let tries = 0; ; tries++) {
    try {
      await loc.scrollIntoViewIfNeeded();
      box = await loc.boundingBox();
      break;
    } catch (e) {
      if (tries >= 3 || !/not attached/.test(String(e && e.message))) throw e;
    }
  }
  const vp = page.viewportSize();
  assert.ok(box && box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0 &&
    box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5, `${what} is at ${JSON.stringify(box)} in ${JSON.stringify(vp)}`);
}
