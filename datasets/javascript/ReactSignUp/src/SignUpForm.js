import React, { Component } from 'react';
import { connect } from 'react-redux';
import { changeField, blurField, submitSignUp } from './actions';
import { validators } from './validators';

class SignUpForm extends Component {
  handleChange = (e) => {
    this.props.changeField(e.target.name, e.target.value);
  };

  handleBlur = (e) => {
    var field = e.target.name;
    this.props.blurField(field, validators[field](e.target.value, this.props.values));
  };

  handleSubmit = (e) => {
    e.preventDefault();
    if (!this.props.submitting) this.props.submitSignUp(this.props.values);
  };

  render() {
    var { values, errors, touched, submitFailed, submitting, submitted, serverError } = this.props;
    if (submitted) {
      return <div className="success">Welcome, {values.name}! Your account has been created.</div>;
    }
    return (
      <form className="signup" onSubmit={this.handleSubmit} noValidate>
        <h2>Create your account</h2>
        {serverError && (
          <div className="server-error" dangerouslySetInnerHTML={{ __html: 'Sorry <b>' + values.name + '</b>, ' + serverError }} />
        )}
        <label>Name <input name="name" value={values.name} onChange={this.handleChange} onBlur={this.handleBlur} /></label>
        {(touched.name || submitFailed) && errors.name && <span className="error">{errors.name}</span>}
        <label>Email <input name="email" type="email" value={values.email} onChange={this.handleChange} onBlur={this.handleBlur} /></label>
        {(touched.email || submitFailed) && errors.email && <span className="error">{errors.email}</span>}
        <label>Password <input name="password" type="password" value={values.password} onChange={this.handleChange} onBlur={this.handleBlur} /></label>
        {(touched.password || submitFailed) && errors.password && <span className="error">{errors.password}</span>}
        <label>Confirm password <input name="confirm" type="password" value={values.confirm} onChange={this.handleChange} onBlur={this.handleBlur} /></label>
        {(touched.confirm || submitFailed) && errors.confirm && <span className="error">{errors.confirm}</span>}
        <button type="submit" disabled={submitting}>{submitting ? 'Signing up...' : 'Sign up'}</button>
      </form>
    );
  }
}

const mapStateToProps = (state) => state;

export default connect(mapStateToProps, { changeField, blurField, submitSignUp })(SignUpForm);
