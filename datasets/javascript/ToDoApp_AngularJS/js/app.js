/* To-do list, AngularJS 1.6. The route only carries the status filter. */
angular.module('todoApp', ['ngRoute'])
  .constant('STORAGE_KEY', 'todos-angularjs')
  .config(['$routeProvider', function ($routeProvider) {
    // One template for every filter: the list in index.html reads $routeParams.status
    $routeProvider
      .when('/', { template: '' })
      .when('/:status', { template: '' })
      .otherwise({ redirectTo: '/' });
  }]);
