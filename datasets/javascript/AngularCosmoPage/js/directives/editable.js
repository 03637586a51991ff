/**
 * <div cs-editable contenteditable="true" ng-model="page.body"></div>
 *
 * Two-way binding between a contenteditable element and ng-model: the model is the
 * element's HTML. Used for the page body.
 */
cmsApp.directive('csEditable', function () {
  return {
    restrict: 'A',
    require: 'ngModel',
    link: function (scope, element, attrs, ngModel) {
      ngModel.$render = function () {
        element.html(ngModel.$viewValue || '');
      };

      element.on('input blur', function () {
        scope.$apply(function () {
          var html = element.html();
          // An emptied contenteditable keeps a lone <br>
          if (html === '<br>') html = '';
          ngModel.$setViewValue(html);
        });
      });
    }
  };
});
