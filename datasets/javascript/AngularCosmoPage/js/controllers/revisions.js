/**
 * RevisionsCtrl - sidebar of the editor (templates/revisions.html, included in the
 * PageCtrl scope): the saved revisions of the page, newest first. Reloads when the page
 * gets an id and after each save (the 'revisionSaved' event of PageCtrl).
 */
cmsApp.controller('RevisionsCtrl', ['$scope', '$rootScope', 'REST', 'Page', function ($scope, $rootScope, REST, Page) {
  $scope.revisions = [];

  function load() {
    if (!Page.id) return;
    REST.revisions.query({ pageId: Page.id }, function (revisions) {
      $scope.revisions = revisions;
    });
  }

  $scope.$watch('page.id', load);
  $scope.$on('revisionSaved', load);

  /**
   * Put a revision back into the editor. Nothing is stored until the page is saved,
   * which then creates a new revision.
   */
  $scope.restore = function (revision) {
    Page.title = revision.title;
    Page.description = revision.description;
    Page.url = revision.url;
    Page.type = revision.type;
    Page.body = revision.body;
    Page.publish = revision.published;
    $scope.autosave();
    $rootScope.notify('Revision from ' + new Date(revision.created * 1000).toLocaleString() + ' restored, save to keep it');
  };
}]);
