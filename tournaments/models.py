# Models for this app are added by later issues.
