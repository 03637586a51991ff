// URLs of the viewer's views: the view and its filters live in the hash
// (#/items?model=...), so a view can be shared or reloaded. The views link with these;
// main.js reads the hash and draws the view.
export function hashFor(view, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== null && value !== undefined && value !== "") query.set(key, value);
  }
  const text = query.toString();
  return `#/${view}${text ? `?${text}` : ""}`;
}

// Filters typed on a page update the URL without drawing the page again.
export function replaceParams(view, params) {
  history.replaceState(null, "", hashFor(view, params));
}
