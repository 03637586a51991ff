// The page being edited. One shared object: the editor, the revisions panel and the
// directives all read and write its fields directly.
cmsApp.factory('Page', ['PAGE_TYPES', function (PAGE_TYPES) {
  // our field name -> the back end's field name, for the fields copied as they are
  var SERVER_FIELDS = {
    title: 'title',
    description: 'description',
    url: 'url',
    type: 'type',
    body: 'body',
    tags: 'tags',
    publishedDate: 'published_date',
    authorId: 'author_id',
    modified: 'modified'
  };

  var Page = {
    types: PAGE_TYPES
  };

  /** Empty the state, for a new page or before another page is loaded. */
  Page.reset = function () {
    Page.id = null;
    Page.title = '';
    Page.description = '';
    Page.url = '';
    Page.type = 'basic';
    Page.body = '';
    Page.publish = 'N';         // 'Y' published, 'N' draft, 'schedule' published later
    Page.scheduleDate = null;   // Date, only used when publish is 'schedule'
    Page.publishedDate = null;  // unix seconds from the server, null if never published
    Page.tags = [];
    Page.featured = null;       // { src: '...', alt: '...' }
    Page.authorId = null;
    Page.modified = null;
  };

  /**
   * Copy a page as the server sends it into the shared state. The server names its
   * fields in snake_case; SERVER_FIELDS maps them to ours. The publish state is
   * derived: a published page whose date lies in the future is a scheduled page.
   *
   * @param {Object} data page from GET /api/pages/:pageId
   */
  Page.load = function (data) {
    var now = Math.round(new Date().getTime() / 1000);
    Page.reset();
    angular.forEach(SERVER_FIELDS, function (serverName, field) {
      if (data[serverName] != null) {
        Page[field] = data[serverName];
      }
    });
    Page.id = data.id;
    Page.tags = Page.tags.slice();
    Page.publishedDate = Page.publishedDate ? parseInt(Page.publishedDate, 10) : null;
    if (data.featured_image) {
      Page.featured = { src: data.featured_image, alt: data.featured_alt };
    }

    if (data.published !== 'Y') {
      Page.publish = 'N';
    } else if (Page.publishedDate > now) {
      Page.publish = 'schedule';
      Page.scheduleDate = new Date(Page.publishedDate * 1000);
    } else {
      Page.publish = 'Y';
    }
  };

  Page.reset();
  return Page;
}]);
