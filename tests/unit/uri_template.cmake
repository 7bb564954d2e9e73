# placeholder: the uri_template tests are declared here
