import React from 'react';
import ReactDOM from 'react-dom';
import { createStore, applyMiddleware } from 'redux';
import { Provider } from 'react-redux';
import thunk from 'redux-thunk';
import signup from './reducer';
import SignUpForm from './SignUpForm';
import './index.css';

const store = createStore(signup, applyMiddleware(thunk));

ReactDOM.render(<Provider store={store}><SignUpForm /></Provider>, document.getElementById('root'));
