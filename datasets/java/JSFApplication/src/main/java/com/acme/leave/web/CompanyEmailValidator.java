package com.acme.leave.web;

import javax.faces.application.FacesMessage;
import javax.faces.component.UIComponent;
import javax.faces.context.FacesContext;
import javax.faces.validator.FacesValidator;
import javax.faces.validator.Validator;
import javax.faces.validator.ValidatorException;

@FacesValidator("companyEmailValidator")
public class CompanyEmailValidator implements Validator {

    public void validate(FacesContext context, UIComponent component, Object value) throws ValidatorException {
        if (value == null) {
            return;
        }
        String email = value.toString().trim().toLowerCase();
        if (!email.matches("[a-z0-9._-]+@acme-corp\\.com")) {
            throw new ValidatorException(new FacesMessage(FacesMessage.SEVERITY_ERROR,
                    "Please use your @acme-corp.com address", null));
        }
    }
}
