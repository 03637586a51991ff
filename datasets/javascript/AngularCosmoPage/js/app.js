/* CMS admin: page editor. AngularJS 1.5, every file is a plain script loaded by index.html. */
var cmsApp = angular.module('cmsPageEditor', ['ngRoute', 'ngResource']);

cmsApp.constant('API_ROOT', '/api/');
// Search engines cut descriptions after about 160 characters
cmsApp.constant('DESCRIPTION_MAX', 160);

// The page types the site's theme has a template for
cmsApp.constant('PAGE_TYPES', [
  { id: 'basic', label: 'Basic page', help: 'Title, body and an optional featured image' },
  { id: 'article', label: 'Article', help: 'Shows the author and the publish date above the body' },
  { id: 'landing', label: 'Landing page', help: 'Full-width featured image, no sidebar' },
  { id: 'gallery', label: 'Gallery', help: 'Shows the images of the body as a grid' }
]);

cmsApp.config(['$routeProvider', '$httpProvider', function ($routeProvider, $httpProvider) {
  $routeProvider
    .when('/pages', {
      templateUrl: 'templates/page-list.html',
      controller: 'PageListCtrl'
    })
    .when('/pages/new', {
      templateUrl: 'templates/page-editor.html',
      controller: 'PageCtrl'
    })
    .when('/pages/:pageId', {
      templateUrl: 'templates/page-editor.html',
      controller: 'PageCtrl'
    })
    .otherwise({ redirectTo: '/pages' });

  $httpProvider.interceptors.push('authInterceptor');
}]);

// Every request to the back end carries the token the login page left in localStorage.
cmsApp.factory('authInterceptor', ['$window', function ($window) {
  return {
    request: function (config) {
      var token = $window.localStorage.getItem('cms.token');
      if (token) {
        config.headers['X-Auth-Token'] = token;
      }
      return config;
    }
  };
}]);

// The user the login page stored, and the notification bar of index.html.
cmsApp.run(['$rootScope', '$window', function ($rootScope, $window) {
  var stored = $window.localStorage.getItem('cms.user');
  $rootScope.currentUser = stored ? JSON.parse(stored) : { id: 0, name: 'guest', role: 'guest' };

  // type: 'info' (default), 'success', 'warning' or 'error'
  $rootScope.notify = function (message, type) {
    $rootScope.notification = { message: message, type: type || 'info' };
  };

  $rootScope.$on('$routeChangeStart', function () {
    $rootScope.notification = null;
  });
}]);
