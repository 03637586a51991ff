var EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateName(value) {
  if (!value) return 'Name is required';
  if (value.length < 2) return 'Name must be at least 2 characters';
  if (value.length > 50) return 'Name must be at most 50 characters';
  return null;
}

export function validateEmail(value) {
  if (!value) return 'Email is required';
  if (!EMAIL_RE.test(value)) return 'Email is not valid';
  return null;
}

export function validatePassword(value) {
  if (!value) return 'Password is required';
  if (value.length < 8) return 'Password must be at least 8 characters';
  if (!/[0-9]/.test(value)) return 'Password must contain a number';
  if (!/[A-Z]/.test(value)) return 'Password must contain an upper-case letter';
  return null;
}

export function validateConfirm(value, values) {
  if (!value) return 'Please confirm your password';
  return value !== values.password ? 'Passwords do not match' : null;
}

export const validators = { name: validateName, email: validateEmail, password: validatePassword, confirm: validateConfirm };

export function validateForm(values) {
  var errors = {};
  Object.keys(validators).forEach(function (field) {
    var error = validators[field](values[field], values);
    if (error) errors[field] = error;
  });
  return errors;
}
