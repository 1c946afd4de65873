"""Default pagination for every list endpoint."""

from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    """``?page=N`` and ``?page_size=M`` (default 50, at most 500)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
