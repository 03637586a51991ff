package com.acme.leave.web;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

import javax.faces.application.FacesMessage;
import javax.faces.bean.ManagedBean;
import javax.faces.bean.SessionScoped;
import javax.faces.context.FacesContext;

@ManagedBean(name = "userSession")
@SessionScoped
public class UserSession implements Serializable {

    private static final long serialVersionUID = 1L;

    // TODO read from LDAP
    private static final List<String> MANAGERS = Arrays.asList("anna.berg", "tom.keller");

    private String userName;
    private boolean manager;

    public String login() {
        if (userName == null || userName.trim().length() == 0) {
            FacesContext.getCurrentInstance().addMessage(null,
                    new FacesMessage(FacesMessage.SEVERITY_ERROR, "Please enter your user name", null));
            return null;
        }
        userName = userName.trim().toLowerCase();
        manager = MANAGERS.contains(userName);
        return manager ? "list?faces-redirect=true" : "request?faces-redirect=true";
    }

    public String logout() {
        FacesContext.getCurrentInstance().getExternalContext().invalidateSession();
        return "logout";
    }

    public boolean isLoggedIn() {
        return userName != null;
    }

    public String getUserName() { return userName; }
    public void setUserName(String userName) { this.userName = userName; }
    public boolean isManager() { return manager; }
}
