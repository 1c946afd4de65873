# Admin registrations for this app's models.
