/**
 * URL slug of a title, used for the page URL:
 *   "Hello World, again!"  -> "hello-world-again"
 *   "Tips & Tricks"        -> "tips-and-tricks"
 */
cmsApp.filter('slugify', function () {
  return function (text) {
    if (!text) return '';
    return text.toString().toLowerCase()
      .replace(/&/g, '-and-')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  };
});

/**
 * Unix seconds -> "just now", "5 minutes ago", "3 days ago"; 'never' for no date.
 * Used for the modified date of pages, drafts and revisions.
 */
cmsApp.filter('timeAgo', function () {
  return function (seconds) {
    if (!seconds) return 'never';
    var diff = Math.round(new Date().getTime() / 1000) - seconds;
    if (diff < 60) return 'just now';
    if (diff < 3600) return Math.floor(diff / 60) + ' minutes ago';
    if (diff < 86400) return Math.floor(diff / 3600) + ' hours ago';
    return Math.floor(diff / 86400) + ' days ago';
  };
});

/**
 * A page as the server sends it (snake_case) -> 'Published', 'Scheduled' or 'Draft'.
 * Scheduled pages are stored as published with a published_date in the future.
 */
cmsApp.filter('pageStatus', function () {
  return function (page) {
    if (page.published !== 'Y') return 'Draft';
    if (page.published_date * 1000 > new Date().getTime()) return 'Scheduled';
    return 'Published';
  };
});
