import * as types from './actions';

const initialState = {
  values: { name: '', email: '', password: '', confirm: '' },
  errors: {}, touched: {}, submitFailed: false, submitting: false, submitted: false, serverError: null
};

export default function signup(state = initialState, action) {
  switch (action.type) {
    case types.FIELD_CHANGED:
      var values = Object.assign({}, state.values, { [action.field]: action.value });
      return Object.assign({}, state, { values: values });
    case types.FIELD_BLURRED:
      var errors = state.errors;
      if (action.error) errors[action.field] = action.error;
      else delete errors[action.field];
      var touched = Object.assign({}, state.touched, { [action.field]: true });
      return Object.assign({}, state, { errors: errors, touched: touched });
    case types.VALIDATION_FAILED:
      return Object.assign({}, state, { errors: action.errors, submitFailed: true });
    case types.SUBMIT_REQUEST:
      return Object.assign({}, state, { submitting: true, serverError: null, errors: {} });
    case types.SUBMIT_SUCCESS:
      return Object.assign({}, state, { submitting: false, submitted: true });
    case types.SUBMIT_FAILURE:
      return Object.assign({}, state, { submitting: false, serverError: action.error });
    default:
      return state;
  }
}
