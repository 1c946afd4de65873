"""Pages for people: server-rendered Django templates over the clubs and tournaments services.

The top layer: pages read through selectors and write through services, never the ORM, and never
compute a rule. Templates live in the top-level ``templates/pages/``; the strings people read are
translated with gettext (``pages/locale``).
"""
