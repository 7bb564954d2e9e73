# key ring tests are declared here
