// Display helpers for the user records of the JSONPlaceholder API.

export function formatAddress(address) {
  const parts = [address.street, address.suite, address.zipcode + ' ' + address.city];
  return parts.join(', ');
}

export function websiteUrl(website) {
  // The API gives bare host names such as "hildegard.org".
  return 'http://' + website;
}

export function mapUrl(geo) {
  return `https://www.openstreetmap.org/?mlat=${geo.lat}&mlon=${geo.lng}&zoom=12`;
}
