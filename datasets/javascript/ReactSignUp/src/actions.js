import { validateForm } from './validators';

export const FIELD_CHANGED = 'FIELD_CHANGED';
export const FIELD_BLURRED = 'FIELD_BLURRED';
export const VALIDATION_FAILED = 'VALIDATION_FAILED';
export const SUBMIT_REQUEST = 'SUBMIT_REQUEST';
export const SUBMIT_SUCCESS = 'SUBMIT_SUCCESS';
export const SUBMIT_FAILURE = 'SUBMIT_FAILURE';

export const changeField = (field, value) => ({ type: FIELD_CHANGED, field: field, value: value });
export const blurField = (field, error) => ({ type: FIELD_BLURRED, field: field, error: error });

// TODO: replace with the real API call when the backend is ready
export function submitSignUp(values) {
  return function (dispatch) {
    var errors = validateForm(values);
    if (Object.keys(errors).length > 0) {
      return dispatch({ type: VALIDATION_FAILED, errors: errors });
    }
    dispatch({ type: SUBMIT_REQUEST });
    setTimeout(function () {
      if (['admin@example.com', 'test@example.com'].indexOf(values.email.toLowerCase()) > -1) {
        dispatch({ type: SUBMIT_FAILURE, error: 'this email is already registered.' });
      } else {
        console.log('user signed up', values);
        dispatch({ type: SUBMIT_SUCCESS });
      }
    }, 1500);
  };
}
