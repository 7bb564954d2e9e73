# placeholder: the handler_pool tests are declared here
