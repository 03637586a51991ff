/**
 * PageListCtrl - all pages of the site (route /pages), with a title search, a status
 * filter, sortable columns and delete.
 */
cmsApp.controller('PageListCtrl', ['$scope', '$rootScope', '$window', '$filter', 'REST',
  function ($scope, $rootScope, $window, $filter, REST) {
  $scope.pages = [];
  $scope.search = '';
  $scope.status = 'all';
  $scope.sortField = 'modified';
  $scope.sortReverse = true;
  $scope.loading = true;

  REST.pages.query({}, function (pages) {
    $scope.pages = pages;
    $scope.loading = false;
  }, function () {
    $scope.loading = false;
    $rootScope.notify('The pages could not be loaded', 'error');
  });

  // ng-repeat filter for the status select: 'all', 'Published', 'Scheduled' or 'Draft'
  $scope.hasStatus = function (page) {
    return $scope.status === 'all' || $filter('pageStatus')(page) === $scope.status;
  };

  $scope.remove = function (page) {
    if (!$window.confirm('Delete "' + page.title + '"?')) return;
    REST.pages.delete({ pageId: page.id }, function () {
      $scope.pages.splice($scope.pages.indexOf(page), 1);
      $window.localStorage.removeItem('draft.' + page.id + '.savedAt');
    });
  };
}]);
