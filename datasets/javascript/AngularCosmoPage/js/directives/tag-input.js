/**
 * <cs-tag-input tags="page.tags" on-change="autosave()"></cs-tag-input>
 *
 * Edits an array of tags in place. Enter or comma adds the typed tag (trimmed, lower
 * case, without a leading #, once), Backspace in an empty field removes the last one.
 * From the second typed character on, up to five suggestions come from GET /api/tags.
 */
cmsApp.directive('csTagInput', ['$http', 'API_ROOT', function ($http, API_ROOT) {
  return {
    restrict: 'E',
    scope: { tags: '=', onChange: '&' },
    template:
      '<div class="tag-input">' +
      '  <span class="tag" ng-repeat="tag in tags">{{ tag }} <a href="" ng-click="remove($index)">&times;</a></span>' +
      '  <input type="text" ng-model="typed" ng-keydown="keydown($event)" ng-change="suggest()" placeholder="Add a tag">' +
      '  <ul class="suggestions" ng-show="suggestions.length">' +
      '    <li ng-repeat="s in suggestions" ng-click="add(s)">{{ s }}</li>' +
      '  </ul>' +
      '</div>',
    link: function (scope, element) {
      scope.typed = '';
      scope.suggestions = [];

      // Adds a tag typed or picked from the suggestions, then empties the field.
      scope.add = function (tag) {
        tag = tag.replace(/^#/, '').trim().toLowerCase();
        if (tag && scope.tags.indexOf(tag) === -1) {
          scope.tags.push(tag);
          scope.onChange();
        }
        scope.typed = '';
        scope.suggestions = [];
        element.find('input')[0].focus();
      };

      scope.remove = function (index) {
        scope.tags.splice(index, 1);
        scope.onChange();
      };

      // 13 Enter and 188 comma add the typed text; 8 Backspace removes the last tag.
      scope.keydown = function (e) {
        if (e.keyCode === 13 || e.keyCode === 188) {
          e.preventDefault();
          scope.add(scope.typed);
        } else if (e.keyCode === 8 && !scope.typed) {
          scope.remove(scope.tags.length - 1);
        }
      };

      // Called on every keystroke; an answer may arrive after a later one.
      scope.suggest = function () {
        if (scope.typed.length < 2) {
          scope.suggestions = [];
          return;
        }
        $http.get(API_ROOT + 'tags', { params: { q: scope.typed } }).then(function (response) {
          scope.suggestions = response.data.filter(function (tag) {
            return scope.tags.indexOf(tag) === -1;
          }).slice(0, 5);
        });
      };
    }
  };
}]);
