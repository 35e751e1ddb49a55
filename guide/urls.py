"""Guide URLs, included inside i18n_patterns: /<lang>/rules/…, /<lang>/faq/…, …"""

from django.urls import path

from guide import views

app_name = "guide"

urlpatterns = [
    path("rules/", views.index, name="index"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("faq/<slug:topic>/", views.faq, name="faq"),
    path("glossary/", views.glossary, name="glossary"),
    path("house-rules/", views.house_rules, name="house_rules"),
]
