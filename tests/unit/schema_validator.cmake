# placeholder: the schema_validator tests are declared here
