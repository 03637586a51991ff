/**
 * REST - the back end's resources. Page fields travel in the server's snake_case names.
 *
 *   GET/POST        /api/pages                          list, create
 *   GET/PUT/DELETE  /api/pages/:pageId                  one page
 *   GET/POST        /api/pages/:pageId/revisions        revisions of a page
 *   DELETE          /api/pages/:pageId/tags             remove all tags of a page
 *   POST            /api/pages/:pageId/tags             add one tag: { tag: 'news' }
 *   GET             /api/files?type=image               the media library
 *
 * The token header is added by authInterceptor (app.js).
 */
cmsApp.factory('REST', ['$resource', 'API_ROOT', function ($resource, API_ROOT) {
  return {
    pages: $resource(API_ROOT + 'pages/:pageId', { pageId: '@id' }, {
      update: { method: 'PUT' }
    }),
    revisions: $resource(API_ROOT + 'pages/:pageId/revisions/:revisionId', {
      pageId: '@page_id',
      revisionId: '@id'
    }),
    pageTags: $resource(API_ROOT + 'pages/:pageId/tags', { pageId: '@page_id' }),
    files: $resource(API_ROOT + 'files/:fileId', { fileId: '@id' })
  };
}]);
